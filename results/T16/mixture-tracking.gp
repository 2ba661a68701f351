# mixture-tracking.gp - written by akm from the CSV files in this folder.
# Re-render mixture-tracking.png and mixture-tracking.svg from inside this folder:  gnuplot mixture-tracking.gp
set datafile separator ','
set datafile missing NaN
set title 'T16 tracking, normalized key: remaining gap (M^* − E[M_t])v_j / M^*v_j vs β̃_j^t'
set xlabel 'step t'
set ylabel 'remaining gap'
set logscale y
set grid
set key outside top left horizontal
set yrange [3e-3:1.5]
set linetype 1 lc rgb '#1b9e77'
set linetype 2 lc rgb '#1b9e77'
set linetype 3 lc rgb '#d95f02'
set linetype 4 lc rgb '#d95f02'
set linetype 5 lc rgb '#7570b3'
set linetype 6 lc rgb '#7570b3'
set linetype 7 lc rgb '#e7298a'
set linetype 8 lc rgb '#e7298a'
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'mixture-tracking.png'
plot 'data_tracking_normalized.csv' every ::1 using 2:(strcol(1) eq 'v3' ? $4 : NaN):5 with yerrorbars pt 7 ps 0.8 title 'v3 measured', \
     'data_tracking_normalized.csv' every ::1 using 2:(strcol(1) eq 'v3' ? $3 : NaN) with lines lw 2 title 'v3: β̃_j^t', \
     'data_tracking_normalized.csv' every ::1 using 2:(strcol(1) eq 'v8' ? $4 : NaN):5 with yerrorbars pt 7 ps 0.8 title 'v8 measured', \
     'data_tracking_normalized.csv' every ::1 using 2:(strcol(1) eq 'v8' ? $3 : NaN) with lines lw 2 title 'v8: β̃_j^t', \
     'data_tracking_normalized.csv' every ::1 using 2:(strcol(1) eq 'v9' ? $4 : NaN):5 with yerrorbars pt 7 ps 0.8 title 'v9 measured', \
     'data_tracking_normalized.csv' every ::1 using 2:(strcol(1) eq 'v9' ? $3 : NaN) with lines lw 2 title 'v9: β̃_j^t', \
     'data_tracking_normalized.csv' every ::1 using 2:(strcol(1) eq 'v15' ? $4 : NaN):5 with yerrorbars pt 7 ps 0.8 title 'v15 measured', \
     'data_tracking_normalized.csv' every ::1 using 2:(strcol(1) eq 'v15' ? $3 : NaN) with lines lw 2 title 'v15: β̃_j^t'
set terminal svg size 900,600 dynamic enhanced
set output 'mixture-tracking.svg'
replot
unset output
