# overhead-band.gp - written by akm from the CSV files in this folder.
# Re-render overhead-band.png and overhead-band.svg from inside this folder:  gnuplot overhead-band.gp
set datafile separator ','
set datafile missing NaN
set title 'T14 f(γ) band and the per-step model of the three models vs the reported counts'
set xlabel 'γ = d_ffn / d'
set ylabel 'overhead ratio'
set grid
set key outside top left horizontal
set xrange [0:6]
set yrange [0.08:0.27]
set key bottom right
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'overhead-band.png'
plot 'data_step_model.csv' every ::1 using 4:9 with points pt 7 ps 0.8 title 'per-step model (this toolkit)', \
     'data_step_model.csv' every ::1 using 4:10 with points pt 7 ps 0.8 title 'reported (paper)', \
     (6+4*x)/(24+18*x) title 'f(γ)' lw 2, \
     4.0/18 title '4/18' dt 2
set terminal svg size 900,600 dynamic enhanced
set output 'overhead-band.svg'
replot
unset output
