# map-rho-ratio-top.gp - written by akm from the CSV files in this folder.
# Re-render map-rho-ratio-top.png and map-rho-ratio-top.svg from inside this folder:  gnuplot map-rho-ratio-top.gp
set datafile separator ','
set datafile missing NaN
set title 'ρ^{AK}/ρ^{EMA} at tuned α, top direction u\_1 (normalized key)'
set xlabel 'η'
set ylabel 'β'
set grid
set key outside top left horizontal
set xrange [0.01:2]
set yrange [0.5:0.999]
set grid front
set cblabel 'rho\_ratio'
set key outside top center horizontal
set samples 1000
set cbrange [0:2]
set palette defined (0 '#08306b', 0.5 '#4292c6', 0.999 '#c6dbef', 1 '#fcbba1', 1.5 '#ef3b2c', 2 '#67000d')
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'map-rho-ratio-top.png'
plot 'map_rho-ratio-top.csv' every ::1 using 1:2:6 with image notitle
set terminal svg size 900,600 dynamic enhanced
set output 'map-rho-ratio-top.svg'
replot
unset output
