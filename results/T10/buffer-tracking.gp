# buffer-tracking.gp - written by akm from the CSV files in this folder.
# Re-render buffer-tracking.png and buffer-tracking.svg from inside this folder:  gnuplot buffer-tracking.gp
set datafile separator ','
set datafile missing NaN
set title 'T10 logistic buffer at fixed w: E[M_t u_i] / M*_1 u_i; w switches from 0 to w_1 at t_0 = 60'
set xlabel 'step t'
set ylabel 'E[M_t u_i] / M*_1 u_i,   M*_1 = Ĝ_1(μI + Σ-hat)^{-1}'
set grid
set key outside top left horizontal
set linetype 1 lc rgb '#1b9e77'
set linetype 2 lc rgb '#1b9e77'
set linetype 3 lc rgb '#d95f02'
set linetype 4 lc rgb '#d95f02'
set linetype 5 lc rgb '#7570b3'
set linetype 6 lc rgb '#7570b3'
set linetype 7 lc rgb '#e7298a'
set linetype 8 lc rgb '#e7298a'
set arrow from 60, graph 0 to 60, graph 1 nohead dt 2 lc rgb 'gray40'
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'buffer-tracking.png'
plot 'data_buffer_trajectory.csv' every ::1 using 2:(strcol(1) eq 'u1' ? $4 : NaN) with points pt 7 ps 0.8 title 'measured u1', \
     'data_buffer_trajectory.csv' every ::1 using 2:(strcol(1) eq 'u1' ? $3 : NaN) with lines lw 2 title 'exact mean u1', \
     'data_buffer_trajectory.csv' every ::1 using 2:(strcol(1) eq 'u2' ? $4 : NaN) with points pt 7 ps 0.8 title 'measured u2', \
     'data_buffer_trajectory.csv' every ::1 using 2:(strcol(1) eq 'u2' ? $3 : NaN) with lines lw 2 title 'exact mean u2', \
     'data_buffer_trajectory.csv' every ::1 using 2:(strcol(1) eq 'u5' ? $4 : NaN) with points pt 7 ps 0.8 title 'measured u5', \
     'data_buffer_trajectory.csv' every ::1 using 2:(strcol(1) eq 'u5' ? $3 : NaN) with lines lw 2 title 'exact mean u5', \
     'data_buffer_trajectory.csv' every ::1 using 2:(strcol(1) eq 'u32' ? $4 : NaN) with points pt 7 ps 0.8 title 'measured u32', \
     'data_buffer_trajectory.csv' every ::1 using 2:(strcol(1) eq 'u32' ? $3 : NaN) with lines lw 2 title 'exact mean u32'
set terminal svg size 900,600 dynamic enhanced
set output 'buffer-tracking.svg'
replot
unset output
