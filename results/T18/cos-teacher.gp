# cos-teacher.gp - written by akm from the CSV files in this folder.
# Re-render cos-teacher.png and cos-teacher.svg from inside this folder:  gnuplot cos-teacher.gp
set datafile separator ','
set datafile missing NaN
set title 'T18 cos(M_t, g_t) during training, teacher task (mean over seeds)'
set xlabel 'step'
set ylabel 'cos(M_t, g_t)'
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'cos-teacher.png'
plot 'data_trajectories.csv' every ::1 using 2:(strcol(1) eq 'teacher/sgd-m' ? $3 : NaN) with lines lw 2 title 'sgd-m', \
     'data_trajectories.csv' every ::1 using 2:(strcol(1) eq 'teacher/ak-sgd' ? $3 : NaN) with lines lw 2 title 'ak-sgd', \
     'data_trajectories.csv' every ::1 using 2:(strcol(1) eq 'teacher/adamw' ? $3 : NaN) with lines lw 2 title 'adamw', \
     'data_trajectories.csv' every ::1 using 2:(strcol(1) eq 'teacher/ak-adamw' ? $3 : NaN) with lines lw 2 title 'ak-adamw', \
     'data_trajectories.csv' every ::1 using 2:(strcol(1) eq 'teacher/adamw-hps' ? $3 : NaN) with lines lw 2 title 'adamw-hps'
set terminal svg size 900,600 dynamic enhanced
set output 'cos-teacher.svg'
replot
unset output
