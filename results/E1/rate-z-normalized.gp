# rate-z-normalized.gp - written by akm from the CSV files in this folder.
# Re-render rate-z-normalized.png and rate-z-normalized.svg from inside this folder:  gnuplot rate-z-normalized.gp
set datafile separator ','
set datafile missing NaN
set title 'E1 normalized key: (measured − predicted |β̃|) contraction / SE; line: ρ(S) = 1'
set xlabel 'η'
set ylabel 'β'
set grid
set key outside top left horizontal
set xrange [0.05:4]
set yrange [0:0.99]
set grid front
set cblabel 'z'
set key outside top center horizontal
set samples 1000
set cbrange [-5:5]
set palette defined (0 '#2166ac', 0.5 '#f7f7f7', 1 '#b2182b')
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'rate-z-normalized.png'
plot 'divergence_normalized.csv' every ::1 using 1:2:12 with image notitle, \
     'boundary_normalized.csv' every ::1 using 1:2 with lines lw 3 lc rgb 'red' title 'ρ(S) = 1 (predicted)'
set terminal svg size 900,600 dynamic enhanced
set output 'rate-z-normalized.svg'
replot
unset output
