# train-loss-convnet.gp - written by akm from the CSV files in this folder.
# Re-render train-loss-convnet.png and train-loss-convnet.svg from inside this folder:  gnuplot train-loss-convnet.gp
set datafile separator ','
set datafile missing NaN
set title 'T24 convnet on fashion-mnist: mean training loss per epoch (mean over 35 seeds, tuned learning rates)'
set xlabel 'epoch'
set ylabel 'training cross-entropy (epoch mean)'
set logscale y
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'train-loss-convnet.png'
plot 'data_curves_convnet.csv' every ::1 using 2:(strcol(1) eq 'adamw' ? $3 : NaN) with lines lw 2 title 'adamw', \
     'data_curves_convnet.csv' every ::1 using 2:(strcol(1) eq 'ak-adamw' ? $3 : NaN) with lines lw 2 title 'ak-adamw'
set terminal svg size 900,600 dynamic enhanced
set output 'train-loss-convnet.svg'
replot
unset output
