# transport-normalized.gp - written by akm from the CSV files in this folder.
# Re-render transport-normalized.png and transport-normalized.svg from inside this folder:  gnuplot transport-normalized.gp
set datafile separator ','
set datafile missing NaN
set title 'T3 transport, normalized key, spiked: E[u_iᵀP_k u_i] vs β̃_i^k'
set xlabel 'lag k'
set ylabel 'mean projection on u_i'
set logscale y
set grid
set key outside top left horizontal
set yrange [1e-5:1.5]
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'transport-normalized.png'
plot 'data_lags_normalized.csv' every ::1 using 3:(strcol(2) eq 'u1' ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'measured u1', \
     'data_lags_normalized.csv' every ::1 using 3:(strcol(2) eq 'u1' ? $4 : NaN) with lines lw 2 title 'β̃^k u1', \
     'data_lags_normalized.csv' every ::1 using 3:(strcol(2) eq 'u2' ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'measured u2', \
     'data_lags_normalized.csv' every ::1 using 3:(strcol(2) eq 'u2' ? $4 : NaN) with lines lw 2 title 'β̃^k u2', \
     'data_lags_normalized.csv' every ::1 using 3:(strcol(2) eq 'u3' ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'measured u3', \
     'data_lags_normalized.csv' every ::1 using 3:(strcol(2) eq 'u3' ? $4 : NaN) with lines lw 2 title 'β̃^k u3', \
     'data_lags_normalized.csv' every ::1 using 3:(strcol(2) eq 'u4' ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'measured u4', \
     'data_lags_normalized.csv' every ::1 using 3:(strcol(2) eq 'u4' ? $4 : NaN) with lines lw 2 title 'β̃^k u4', \
     'data_lags_normalized.csv' every ::1 using 3:(strcol(2) eq 'u17' ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'measured u17', \
     'data_lags_normalized.csv' every ::1 using 3:(strcol(2) eq 'u17' ? $4 : NaN) with lines lw 2 title 'β̃^k u17', \
     'data_lags_normalized.csv' every ::1 using 3:(strcol(2) eq 'u32' ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'measured u32', \
     'data_lags_normalized.csv' every ::1 using 3:(strcol(2) eq 'u32' ? $4 : NaN) with lines lw 2 title 'β̃^k u32'
set terminal svg size 900,600 dynamic enhanced
set output 'transport-normalized.svg'
replot
unset output
