# curves-logistic.gp - written by akm from the CSV files in this folder.
# Re-render curves-logistic.png and curves-logistic.svg from inside this folder:  gnuplot curves-logistic.gp
set datafile separator ','
set datafile missing NaN
set title 'T20 held-out loss, logistic task (mean over seeds, tuned rates)'
set xlabel 'step'
set ylabel 'held-out loss'
set logscale y
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'curves-logistic.png'
plot 'data_curves.csv' every ::1 using 2:(strcol(1) eq 'logistic/sgd-m' ? $3 : NaN) with lines lw 2 title 'sgd-m', \
     'data_curves.csv' every ::1 using 2:(strcol(1) eq 'logistic/ak-sgd' ? $3 : NaN) with lines lw 2 title 'ak-sgd', \
     'data_curves.csv' every ::1 using 2:(strcol(1) eq 'logistic/adamw' ? $3 : NaN) with lines lw 2 title 'adamw', \
     'data_curves.csv' every ::1 using 2:(strcol(1) eq 'logistic/ak-adamw' ? $3 : NaN) with lines lw 2 title 'ak-adamw'
set terminal svg size 900,600 dynamic enhanced
set output 'curves-logistic.svg'
replot
unset output
