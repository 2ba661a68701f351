# raw-key-stability.gp - written by akm from the CSV files in this folder.
# Re-render raw-key-stability.png and raw-key-stability.svg from inside this folder:  gnuplot raw-key-stability.gp
set datafile separator ','
set datafile missing NaN
set title 'T13 raw-key η boundaries vs width: slopes -1.00 (per-step contraction), -0.55 (mean square), -0.55 (a.s.)'
set xlabel 'width n'
set ylabel 'largest stable η'
set logscale x
set logscale y
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'raw-key-stability.png'
plot 'data_raw_key.csv' every ::1 using 1:2 with linespoints lw 1.5 pt 7 ps 0.8 title '(1+β)/n, every step a contraction', \
     'data_raw_key.csv' every ::1 using 1:3 with linespoints lw 1.5 pt 7 ps 0.8 title 'mean-square boundary', \
     'data_raw_key.csv' every ::1 using 1:4 with linespoints lw 1.5 pt 7 ps 0.8 title 'almost-sure boundary (Lyapunov = 0)'
set terminal svg size 900,600 dynamic enhanced
set output 'raw-key-stability.svg'
replot
unset output
