# cos-logistic.gp - written by akm from the CSV files in this folder.
# Re-render cos-logistic.png and cos-logistic.svg from inside this folder:  gnuplot cos-logistic.gp
set datafile separator ','
set datafile missing NaN
set title 'T18 cos(M_t, g_t) during training, logistic task (mean over seeds)'
set xlabel 'step'
set ylabel 'cos(M_t, g_t)'
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'cos-logistic.png'
plot 'data_trajectories.csv' every ::1 using 2:(strcol(1) eq 'logistic/sgd-m' ? $3 : NaN) with lines lw 2 title 'sgd-m', \
     'data_trajectories.csv' every ::1 using 2:(strcol(1) eq 'logistic/ak-sgd' ? $3 : NaN) with lines lw 2 title 'ak-sgd', \
     'data_trajectories.csv' every ::1 using 2:(strcol(1) eq 'logistic/adamw' ? $3 : NaN) with lines lw 2 title 'adamw', \
     'data_trajectories.csv' every ::1 using 2:(strcol(1) eq 'logistic/ak-adamw' ? $3 : NaN) with lines lw 2 title 'ak-adamw', \
     'data_trajectories.csv' every ::1 using 2:(strcol(1) eq 'logistic/adamw-hps' ? $3 : NaN) with lines lw 2 title 'adamw-hps'
set terminal svg size 900,600 dynamic enhanced
set output 'cos-logistic.svg'
replot
unset output
