# map-ms-raw.gp - written by akm from the CSV files in this folder.
# Re-render map-ms-raw.png and map-ms-raw.svg from inside this folder:  gnuplot map-ms-raw.gp
set datafile separator ','
set datafile missing NaN
set title 'mean-square radius ρ(S) (raw key, spiked n=32)'
set xlabel 'log_{10} η'
set ylabel 'β'
set grid
set key outside top left horizontal
set xrange [-4:0.3010299956639812]
set yrange [0:0.999]
set grid front
set cblabel 'ms\_radius'
set key outside top center horizontal
set samples 1000
set cbrange [0:2]
set palette defined (0 '#08306b', 0.5 '#4292c6', 0.999 '#c6dbef', 1 '#fcbba1', 1.5 '#ef3b2c', 2 '#67000d')
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'map-ms-raw.png'
plot 'map_ms-raw.csv' every ::1 using (log10($1)):2:6 with image notitle, \
     (10**x) title 'η = β' lw 2 lc rgb 'white', \
     (10**x)-1 title 'η = 1+β' lw 2 dt 2 lc rgb 'white', \
     100*(10**x) title 'η = β/λ_{max}' lw 2 dt 3 lc rgb 'black'
set terminal svg size 900,600 dynamic enhanced
set output 'map-ms-raw.svg'
replot
unset output
