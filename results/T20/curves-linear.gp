# curves-linear.gp - written by akm from the CSV files in this folder.
# Re-render curves-linear.png and curves-linear.svg from inside this folder:  gnuplot curves-linear.gp
set datafile separator ','
set datafile missing NaN
set title 'T20 held-out loss, linear task (mean over seeds, tuned rates)'
set xlabel 'step'
set ylabel 'held-out loss'
set logscale y
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'curves-linear.png'
plot 'data_curves.csv' every ::1 using 2:(strcol(1) eq 'linear/sgd-m' ? $3 : NaN) with lines lw 2 title 'sgd-m', \
     'data_curves.csv' every ::1 using 2:(strcol(1) eq 'linear/ak-sgd' ? $3 : NaN) with lines lw 2 title 'ak-sgd', \
     'data_curves.csv' every ::1 using 2:(strcol(1) eq 'linear/adamw' ? $3 : NaN) with lines lw 2 title 'adamw', \
     'data_curves.csv' every ::1 using 2:(strcol(1) eq 'linear/ak-adamw' ? $3 : NaN) with lines lw 2 title 'ak-adamw'
set terminal svg size 900,600 dynamic enhanced
set output 'curves-linear.svg'
replot
unset output
