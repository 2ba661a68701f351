# map-stable-normalized.gp - written by akm from the CSV files in this folder.
# Re-render map-stable-normalized.png and map-stable-normalized.svg from inside this folder:  gnuplot map-stable-normalized.gp
set datafile separator ','
set datafile missing NaN
set title 'expectation stability max\_i|β̃\_i| (normalized key, spiked n=32)'
set xlabel 'η'
set ylabel 'β'
set grid
set key outside top left horizontal
set xrange [0.01:4]
set yrange [0:0.999]
set grid front
set cblabel 'max\_abs\_beta\_tilde'
set key outside top center horizontal
set samples 1000
set cbrange [0:2]
set palette defined (0 '#08306b', 0.5 '#4292c6', 0.999 '#c6dbef', 1 '#fcbba1', 1.5 '#ef3b2c', 2 '#67000d')
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'map-stable-normalized.png'
plot 'map_stable-normalized.csv' every ::1 using 1:2:6 with image notitle, \
     x title 'η = β' lw 2 lc rgb 'white', \
     x-1 title 'η = 1+β' lw 2 dt 2 lc rgb 'white', \
     100*x title 'η = β/λ_{max}' lw 2 dt 3 lc rgb 'black'
set terminal svg size 900,600 dynamic enhanced
set output 'map-stable-normalized.svg'
replot
unset output
