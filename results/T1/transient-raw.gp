# transient-raw.gp - written by akm from the CSV files in this folder.
# Re-render transient-raw.png and transient-raw.svg from inside this folder:  gnuplot transient-raw.gp
set datafile separator ','
set datafile missing NaN
set title 'T1 transient, raw key, spiked: 1 − E[M_t u_i]/M*u_i = β̃_i^t'
set xlabel 'step t'
set ylabel 'remaining gap'
set logscale y
set grid
set key outside top left horizontal
set yrange [1e-4:2]
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'transient-raw.png'
plot 'data_transient_raw.csv' every ::1 using 3:(strcol(2) eq 'u1' ? $5 : NaN) with points pt 7 ps 0.8 title 'measured u1', \
     'data_transient_raw.csv' every ::1 using 3:(strcol(2) eq 'u1' ? $4 : NaN) with lines lw 2 title 'β̃^t u1', \
     'data_transient_raw.csv' every ::1 using 3:(strcol(2) eq 'u2' ? $5 : NaN) with points pt 7 ps 0.8 title 'measured u2', \
     'data_transient_raw.csv' every ::1 using 3:(strcol(2) eq 'u2' ? $4 : NaN) with lines lw 2 title 'β̃^t u2', \
     'data_transient_raw.csv' every ::1 using 3:(strcol(2) eq 'u3' ? $5 : NaN) with points pt 7 ps 0.8 title 'measured u3', \
     'data_transient_raw.csv' every ::1 using 3:(strcol(2) eq 'u3' ? $4 : NaN) with lines lw 2 title 'β̃^t u3', \
     'data_transient_raw.csv' every ::1 using 3:(strcol(2) eq 'u4' ? $5 : NaN) with points pt 7 ps 0.8 title 'measured u4', \
     'data_transient_raw.csv' every ::1 using 3:(strcol(2) eq 'u4' ? $4 : NaN) with lines lw 2 title 'β̃^t u4', \
     'data_transient_raw.csv' every ::1 using 3:(strcol(2) eq 'u17' ? $5 : NaN) with points pt 7 ps 0.8 title 'measured u17', \
     'data_transient_raw.csv' every ::1 using 3:(strcol(2) eq 'u17' ? $4 : NaN) with lines lw 2 title 'β̃^t u17', \
     'data_transient_raw.csv' every ::1 using 3:(strcol(2) eq 'u32' ? $5 : NaN) with points pt 7 ps 0.8 title 'measured u32', \
     'data_transient_raw.csv' every ::1 using 3:(strcol(2) eq 'u32' ? $4 : NaN) with lines lw 2 title 'β̃^t u32'
set terminal svg size 900,600 dynamic enhanced
set output 'transient-raw.svg'
replot
unset output
