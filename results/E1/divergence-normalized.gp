# divergence-normalized.gp - written by akm from the CSV files in this folder.
# Re-render divergence-normalized.png and divergence-normalized.svg from inside this folder:  gnuplot divergence-normalized.gp
set datafile separator ','
set datafile missing NaN
set title 'E1 normalized key: fraction of trials with ‖v\_t‖² > 1e12 (T = 1000, R = 256); line: predicted ρ(S) = 1'
set xlabel 'η'
set ylabel 'β'
set grid
set key outside top left horizontal
set xrange [0.05:4]
set yrange [0:0.99]
set grid front
set cblabel 'diverged fraction'
set key outside top center horizontal
set samples 1000
set cbrange [0:1]
set palette defined (0 '#440154', 0.25 '#3b528b', 0.5 '#21918c', 0.75 '#5ec962', 1 '#fde725')
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'divergence-normalized.png'
plot 'divergence_normalized.csv' every ::1 using 1:2:15 with image notitle, \
     'boundary_normalized.csv' every ::1 using 1:2 with lines lw 3 lc rgb 'red' title 'ρ(S) = 1 (predicted)'
set terminal svg size 900,600 dynamic enhanced
set output 'divergence-normalized.svg'
replot
unset output
