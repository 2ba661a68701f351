# validation-loss.gp - written by akm from the CSV files in this folder.
# Re-render validation-loss.png and validation-loss.svg from inside this folder:  gnuplot validation-loss.gp
set datafile separator ','
set datafile missing NaN
set title 'T23 fashion-mnist MLP: validation loss (mean over 34 seeds, tuned learning rates)'
set xlabel 'epoch'
set ylabel 'validation cross-entropy'
set logscale y
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'validation-loss.png'
plot 'data_curves.csv' every ::1 using 2:(strcol(1) eq 'sgd-m' ? $3 : NaN) with lines lw 2 title 'sgd-m', \
     'data_curves.csv' every ::1 using 2:(strcol(1) eq 'ak-sgd' ? $3 : NaN) with lines lw 2 title 'ak-sgd'
set terminal svg size 900,600 dynamic enhanced
set output 'validation-loss.svg'
replot
unset output
