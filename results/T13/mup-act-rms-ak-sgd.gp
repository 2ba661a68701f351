# mup-act-rms-ak-sgd.gp - written by akm from the CSV files in this folder.
# Re-render mup-act-rms-ak-sgd.png and mup-act-rms-ak-sgd.svg from inside this folder:  gnuplot mup-act-rms-ak-sgd.gp
set datafile separator ','
set datafile missing NaN
set title 'T13 coordinate check (ak-sgd, μP): hidden-layer pre-activation RMS by width'
set xlabel 'training step'
set ylabel 'RMS(W h)'
set grid
set key outside top left horizontal
set key outside right
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'mup-act-rms-ak-sgd.png'
plot 'data_coord_hidden_ak-sgd_act_rms.csv' every ::1 using 2:(column(1) == 128 ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 'n = 128', \
     'data_coord_hidden_ak-sgd_act_rms.csv' every ::1 using 2:(column(1) == 256 ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 'n = 256', \
     'data_coord_hidden_ak-sgd_act_rms.csv' every ::1 using 2:(column(1) == 512 ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 'n = 512', \
     'data_coord_hidden_ak-sgd_act_rms.csv' every ::1 using 2:(column(1) == 1024 ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 'n = 1024'
set terminal svg size 900,600 dynamic enhanced
set output 'mup-act-rms-ak-sgd.svg'
replot
unset output
