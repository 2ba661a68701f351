# mup-step-slopes.gp - written by akm from the CSV files in this folder.
# Re-render mup-step-slopes.png and mup-step-slopes.svg from inside this folder:  gnuplot mup-step-slopes.gp
set datafile separator ','
set datafile missing NaN
set title 'T13 hidden-layer RMS(ΔW x): width slope per step (0 = collapse, −½ = key-norm scaling)'
set xlabel 'training step'
set ylabel 'd log RMS(ΔW x) / d log n'
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'mup-step-slopes.png'
plot 'data_coord_step_slopes_hidden_update.csv' every ::1 using 2:(strcol(1) eq 'ak-adamw' ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 'ak-adamw', \
     'data_coord_step_slopes_hidden_update.csv' every ::1 using 2:(strcol(1) eq 'adamw' ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 'adamw', \
     'data_coord_step_slopes_hidden_update.csv' every ::1 using 2:(strcol(1) eq 'ak-adamw-sqrt' ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 'ak-adamw-sqrt', \
     'data_coord_step_slopes_hidden_update.csv' every ::1 using 2:(strcol(1) eq 'ak-sgd' ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 'ak-sgd', \
     'data_coord_step_slopes_hidden_update.csv' every ::1 using 2:(strcol(1) eq 'sgd-m' ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 'sgd-m', \
     0 title 'collapse' dt 2, \
     -0.5 title 'n^{-1/2}' dt 3
set terminal svg size 900,600 dynamic enhanced
set output 'mup-step-slopes.svg'
replot
unset output
