# curves-teacher.gp - written by akm from the CSV files in this folder.
# Re-render curves-teacher.png and curves-teacher.svg from inside this folder:  gnuplot curves-teacher.gp
set datafile separator ','
set datafile missing NaN
set title 'T20 held-out loss, teacher task (mean over seeds, tuned rates)'
set xlabel 'step'
set ylabel 'held-out loss'
set logscale y
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'curves-teacher.png'
plot 'data_curves.csv' every ::1 using 2:(strcol(1) eq 'teacher/sgd-m' ? $3 : NaN) with lines lw 2 title 'sgd-m', \
     'data_curves.csv' every ::1 using 2:(strcol(1) eq 'teacher/ak-sgd' ? $3 : NaN) with lines lw 2 title 'ak-sgd', \
     'data_curves.csv' every ::1 using 2:(strcol(1) eq 'teacher/adamw' ? $3 : NaN) with lines lw 2 title 'adamw', \
     'data_curves.csv' every ::1 using 2:(strcol(1) eq 'teacher/ak-adamw' ? $3 : NaN) with lines lw 2 title 'ak-adamw'
set terminal svg size 900,600 dynamic enhanced
set output 'curves-teacher.svg'
replot
unset output
