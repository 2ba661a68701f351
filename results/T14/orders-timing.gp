# orders-timing.gp - written by akm from the CSV files in this folder.
# Re-render orders-timing.png and orders-timing.svg from inside this folder:  gnuplot orders-timing.gp
set datafile separator ','
set datafile missing NaN
set title 'T14 measured time of rules::deployed, Gram / through-N (m = 128, N = 512); crossover 1.62'
set xlabel 'n / m'
set ylabel 'time(Gram) / time(through-N)'
set logscale x
set logscale y
set grid
set key outside top left horizontal
set arrow from 2, graph 0 to 2, graph 1 nohead dt 2 lc rgb 'gray40'
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'orders-timing.png'
plot 'data_timing.csv' every ::1 using 1:7 with linespoints lw 1.5 pt 7 ps 0.8 title 'measured', \
     1 title 'equal time' lc rgb 'gray40', \
     (2*x*x*512 + 2*x*x)/(4*x*512) title 'count ratio (2n²N + 2mn²)/4mnN' dt 3
set terminal svg size 900,600 dynamic enhanced
set output 'orders-timing.svg'
replot
unset output
