# train-loss-vit.gp - written by akm from the CSV files in this folder.
# Re-render train-loss-vit.png and train-loss-vit.svg from inside this folder:  gnuplot train-loss-vit.gp
set datafile separator ','
set datafile missing NaN
set title 'T24 vit on fashion-mnist: mean training loss per epoch (mean over 35 seeds, tuned learning rates)'
set xlabel 'epoch'
set ylabel 'training cross-entropy (epoch mean)'
set logscale y
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'train-loss-vit.png'
plot 'data_curves_vit.csv' every ::1 using 2:(strcol(1) eq 'adamw' ? $3 : NaN) with lines lw 2 title 'adamw', \
     'data_curves_vit.csv' every ::1 using 2:(strcol(1) eq 'ak-adamw' ? $3 : NaN) with lines lw 2 title 'ak-adamw'
set terminal svg size 900,600 dynamic enhanced
set output 'train-loss-vit.svg'
replot
unset output
