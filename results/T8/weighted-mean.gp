# weighted-mean.gp - written by akm from the CSV files in this folder.
# Re-render weighted-mean.png and weighted-mean.svg from inside this folder:  gnuplot weighted-mean.gp
set datafile separator ','
set datafile missing NaN
set title 'T8 density-weighted mean contraction Σ_i λ̂_i β̃_i = β − η‖Σ̂‖_F^2 (eq:weighted-mean)'
set xlabel '‖Σ̂‖_F^2  (1/n for isotropic keys)'
set ylabel 'measured Σ_i λ̂_i β̃_i'
set logscale x
set grid
set key outside top left horizontal
set key outside right top
set format x '10^{%L}'
set arrow from 1.0/64, graph 0 to 1.0/64, graph 1 nohead dt 3 lc rgb 'gray50'
set arrow from 1.0/32, graph 0 to 1.0/32, graph 1 nohead dt 3 lc rgb 'gray50'
set label '1/64' at 1.0/64, graph 0.05 right offset -0.5,0
set label '1/32' at 1.0/32, graph 0.05 left offset 0.5,0
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'weighted-mean.png'
plot 'data_weighted.csv' every ::1 using 4:(strcol(1) eq 'iso-32' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'iso-32', \
     'data_weighted.csv' every ::1 using 4:(strcol(1) eq 'iso-64' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'iso-64', \
     'data_weighted.csv' every ::1 using 4:(strcol(1) eq 'spiked-32' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'spiked-32', \
     'data_weighted.csv' every ::1 using 4:(strcol(1) eq 'spiked-64' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'spiked-64', \
     'data_weighted.csv' every ::1 using 4:(strcol(1) eq 'power-32' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'power-32', \
     'data_weighted.csv' every ::1 using 4:(strcol(1) eq 'power-64' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'power-64', \
     'data_weighted.csv' every ::1 using 4:(strcol(1) eq 'mild-power-64' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'mild-power-64', \
     0.9-0.5*x title 'β − η‖Σ̂‖_F^2' lw 2 lc rgb 'black'
set terminal svg size 900,600 dynamic enhanced
set output 'weighted-mean.svg'
replot
unset output
