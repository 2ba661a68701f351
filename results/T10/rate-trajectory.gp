# rate-trajectory.gp - written by akm from the CSV files in this folder.
# Re-render rate-trajectory.png and rate-trajectory.svg from inside this folder:  gnuplot rate-trajectory.gp
set datafile separator ','
set datafile missing NaN
set title 'T10 soft labels, α·c_1 = 0.05: E[Δw_{t,i}]/Δw_{0,i} vs the linearized map A_i^t'
set xlabel 'step t'
set ylabel 'E[Δw_t] / Δw_0 along u_i'
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
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'rate-trajectory.png'
plot 'data_rate_trajectory.csv' every ::1 using 3:(strcol(2) eq 'u1' ? $5 : NaN) with points pt 7 ps 0.8 title 'measured u1', \
     'data_rate_trajectory.csv' every ::1 using 3:(strcol(2) eq 'u1' ? $4 : NaN) with lines lw 2 title 'A_i^t u1', \
     'data_rate_trajectory.csv' every ::1 using 3:(strcol(2) eq 'u2' ? $5 : NaN) with points pt 7 ps 0.8 title 'measured u2', \
     'data_rate_trajectory.csv' every ::1 using 3:(strcol(2) eq 'u2' ? $4 : NaN) with lines lw 2 title 'A_i^t u2', \
     'data_rate_trajectory.csv' every ::1 using 3:(strcol(2) eq 'u4' ? $5 : NaN) with points pt 7 ps 0.8 title 'measured u4', \
     'data_rate_trajectory.csv' every ::1 using 3:(strcol(2) eq 'u4' ? $4 : NaN) with lines lw 2 title 'A_i^t u4', \
     'data_rate_trajectory.csv' every ::1 using 3:(strcol(2) eq 'u32' ? $5 : NaN) with points pt 7 ps 0.8 title 'measured u32', \
     'data_rate_trajectory.csv' every ::1 using 3:(strcol(2) eq 'u32' ? $4 : NaN) with lines lw 2 title 'A_i^t u32'
set terminal svg size 900,600 dynamic enhanced
set output 'rate-trajectory.svg'
replot
unset output
