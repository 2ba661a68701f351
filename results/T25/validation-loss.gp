# validation-loss.gp - written by akm from the CSV files in this folder.
# Re-render validation-loss.png and validation-loss.svg from inside this folder:  gnuplot validation-loss.gp
set datafile separator ','
set datafile missing NaN
set title 'T25 byte-level transformer on the Jargon File: validation loss (mean over 42 seeds)'
set xlabel 'step'
set ylabel 'validation cross-entropy (nats per byte)'
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'validation-loss.png'
plot 'data_curves.csv' every ::1 using 2:(strcol(1) eq 'adamw' ? $3 : NaN) with lines lw 2 title 'adamw', \
     'data_curves.csv' every ::1 using 2:(strcol(1) eq 'ak-adamw' ? $3 : NaN) with lines lw 2 title 'ak-adamw', \
     'data_curves.csv' every ::1 using 2:(strcol(1) eq 'muon' ? $3 : NaN) with lines lw 2 title 'muon'
set terminal svg size 900,600 dynamic enhanced
set output 'validation-loss.svg'
replot
unset output
