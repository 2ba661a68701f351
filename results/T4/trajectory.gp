# trajectory.gp - written by akm from the CSV files in this folder.
# Re-render trajectory.png and trajectory.svg from inside this folder:  gnuplot trajectory.gp
set datafile separator ','
set datafile missing NaN
set title 'T4 mean parameter error E[e_{t,u1}] (spiked): simulation vs A_1^t s_0'
set xlabel 'step t'
set ylabel 'E[e_t] along u_1'
set grid
set key outside top left horizontal
set xrange [0:60]
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'trajectory.png'
plot 'data_trajectory.csv' every ::1 using 4:(strcol(2) eq 'ak-normalized' ? $6 : NaN):7 with yerrorbars pt 7 ps 0.8 title 'measured ak-normalized', \
     'data_trajectory.csv' every ::1 using 4:(strcol(2) eq 'ak-normalized' ? $5 : NaN) with lines lw 2 title 'A_1^t s_0 ak-normalized', \
     'data_trajectory.csv' every ::1 using 4:(strcol(2) eq 'ema' ? $6 : NaN):7 with yerrorbars pt 7 ps 0.8 title 'measured ema', \
     'data_trajectory.csv' every ::1 using 4:(strcol(2) eq 'ema' ? $5 : NaN) with lines lw 2 title 'A_1^t s_0 ema'
set terminal svg size 900,600 dynamic enhanced
set output 'trajectory.svg'
replot
unset output
