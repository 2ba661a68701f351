# divergence-raw.gp - written by akm from the CSV files in this folder.
# Re-render divergence-raw.png and divergence-raw.svg from inside this folder:  gnuplot divergence-raw.gp
set datafile separator ','
set datafile missing NaN
set title 'E1 raw key: fraction of trials with ‖v\_t‖² > 1e12 (T = 1000, R = 256); line: predicted ρ(S) = 1'
set xlabel 'log_{10} η'
set ylabel 'β'
set grid
set key outside top left horizontal
set xrange [-3:-0.3010299956639812]
set yrange [0:0.99]
set grid front
set cblabel 'diverged fraction'
set key outside top center horizontal
set samples 1000
set cbrange [0:1]
set palette defined (0 '#440154', 0.25 '#3b528b', 0.5 '#21918c', 0.75 '#5ec962', 1 '#fde725')
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'divergence-raw.png'
plot 'divergence_raw.csv' every ::1 using (log10($1)):2:15 with image notitle, \
     'boundary_raw.csv' every ::1 using (log10($1)):2 with lines lw 3 lc rgb 'red' title 'ρ(S) = 1 (predicted)'
set terminal svg size 900,600 dynamic enhanced
set output 'divergence-raw.svg'
replot
unset output
