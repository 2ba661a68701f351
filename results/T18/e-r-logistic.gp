# e-r-logistic.gp - written by akm from the CSV files in this folder.
# Re-render e-r-logistic.png and e-r-logistic.svg from inside this folder:  gnuplot e-r-logistic.gp
set datafile separator ','
set datafile missing NaN
set title 'T18 e_t (lines) and r = ‖M‖/‖g‖ (points) during training, logistic task (mean over seeds)'
set xlabel 'step'
set ylabel 'e_t, r'
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'e-r-logistic.png'
plot 'data_trajectories.csv' every ::1 using 2:(strcol(1) eq 'logistic/sgd-m' ? $4 : NaN) with lines lw 2 title 'e_t sgd-m', \
     'data_trajectories.csv' every ::1 using 2:(strcol(1) eq 'logistic/sgd-m' ? $6 : NaN) with points pt 7 ps 0.8 title 'r sgd-m', \
     'data_trajectories.csv' every ::1 using 2:(strcol(1) eq 'logistic/ak-sgd' ? $4 : NaN) with lines lw 2 title 'e_t ak-sgd', \
     'data_trajectories.csv' every ::1 using 2:(strcol(1) eq 'logistic/ak-sgd' ? $6 : NaN) with points pt 7 ps 0.8 title 'r ak-sgd', \
     'data_trajectories.csv' every ::1 using 2:(strcol(1) eq 'logistic/adamw' ? $4 : NaN) with lines lw 2 title 'e_t adamw', \
     'data_trajectories.csv' every ::1 using 2:(strcol(1) eq 'logistic/adamw' ? $6 : NaN) with points pt 7 ps 0.8 title 'r adamw', \
     'data_trajectories.csv' every ::1 using 2:(strcol(1) eq 'logistic/ak-adamw' ? $4 : NaN) with lines lw 2 title 'e_t ak-adamw', \
     'data_trajectories.csv' every ::1 using 2:(strcol(1) eq 'logistic/ak-adamw' ? $6 : NaN) with points pt 7 ps 0.8 title 'r ak-adamw', \
     'data_trajectories.csv' every ::1 using 2:(strcol(1) eq 'logistic/adamw-hps' ? $4 : NaN) with lines lw 2 title 'e_t adamw-hps', \
     'data_trajectories.csv' every ::1 using 2:(strcol(1) eq 'logistic/adamw-hps' ? $6 : NaN) with points pt 7 ps 0.8 title 'r adamw-hps'
set terminal svg size 900,600 dynamic enhanced
set output 'e-r-logistic.svg'
replot
unset output
