# validation-accuracy.gp - written by akm from the CSV files in this folder.
# Re-render validation-accuracy.png and validation-accuracy.svg from inside this folder:  gnuplot validation-accuracy.gp
set datafile separator ','
set datafile missing NaN
set title 'R2 digits MLP: validation accuracy (mean over 40 seeds, tuned configurations)'
set xlabel 'epoch'
set ylabel 'validation accuracy (%)'
set grid
set key outside top left horizontal
set yrange [50:100]
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'validation-accuracy.png'
plot 'data_curves.csv' every ::1 using 3:(strcol(1) eq 'sgd-m' ? $6 : NaN) with lines lw 2 title 'sgd-m', \
     'data_curves.csv' every ::1 using 3:(strcol(1) eq 'ak-sgd' ? $6 : NaN) with lines lw 2 title 'ak-sgd'
set terminal svg size 900,600 dynamic enhanced
set output 'validation-accuracy.svg'
replot
unset output
