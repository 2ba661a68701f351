# test-accuracy.gp - written by akm from the CSV files in this folder.
# Re-render test-accuracy.png and test-accuracy.svg from inside this folder:  gnuplot test-accuracy.gp
set datafile separator ','
set datafile missing NaN
set title 'R2 test accuracy per seed (paired: same split, initialization and batch order)'
set xlabel 'seed'
set ylabel 'test accuracy (%)'
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'test-accuracy.png'
plot 'data_per_seed.csv' every ::1 using 1:2 with linespoints lw 1.5 pt 7 ps 0.8 title 'SGD-m', \
     'data_per_seed.csv' every ::1 using 1:3 with linespoints lw 1.5 pt 7 ps 0.8 title 'AK-SGD'
set terminal svg size 900,600 dynamic enhanced
set output 'test-accuracy.svg'
replot
unset output
