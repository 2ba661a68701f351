# map-counterexample.gp - written by akm from the CSV files in this folder.
# Re-render map-counterexample.png and map-counterexample.svg from inside this folder:  gnuplot map-counterexample.gp
set datafile separator ','
set datafile missing NaN
set title 'fraction of directions with ρ^{AK} > ρ^{EMA} at α = 0.05 (normalized key)'
set xlabel 'η'
set ylabel 'β'
set grid
set key outside top left horizontal
set xrange [0.01:2]
set yrange [0.5:0.999]
set grid front
set cblabel 'counterexample\_fraction'
set key outside top center horizontal
set samples 1000
set palette defined (0 '#440154', 0.25 '#3b528b', 0.5 '#21918c', 0.75 '#5ec962', 1 '#fde725')
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'map-counterexample.png'
plot 'map_counterexample.csv' every ::1 using 1:2:6 with image notitle
set terminal svg size 900,600 dynamic enhanced
set output 'map-counterexample.svg'
replot
unset output
