# mean-square.gp - written by akm from the CSV files in this folder.
# Re-render mean-square.png and mean-square.svg from inside this folder:  gnuplot mean-square.gp
set datafile separator ','
set datafile missing NaN
set title 'T10 mean-square decay of the half-difference: E‖Δw_t‖^2_Σ / ‖Δw_0‖^2_Σ (must fall for the trial means to be informative)'
set xlabel 'step t'
set ylabel 'mean square ratio'
set logscale x
set logscale y
set grid
set key outside top left horizontal
set format y '10^{%T}'
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'mean-square.png'
plot 'data_mean_square.csv' every ::1 using 3:(strcol(1) eq 'soft' ? $4 : NaN) with lines lw 2 title 'soft (α·c_1 = 0.05)', \
     'data_mean_square.csv' every ::1 using 3:(strcol(1) eq 'soft-unstable' ? $4 : NaN) with lines lw 2 title 'soft-unstable (α·c_1 = 0.1)', \
     'data_mean_square.csv' every ::1 using 3:(strcol(1) eq 'bernoulli' ? $4 : NaN) with lines lw 2 title 'bernoulli (α·c_1 = 0.0003)', \
     'data_mean_square.csv' every ::1 using 3:(strcol(1) eq 'bernoulli-scan-0.001' ? $4 : NaN) with lines lw 2 title 'bernoulli-scan-0.001 (α·c_1 = 0.001)', \
     'data_mean_square.csv' every ::1 using 3:(strcol(1) eq 'bernoulli-scan-0.003' ? $4 : NaN) with lines lw 2 title 'bernoulli-scan-0.003 (α·c_1 = 0.003)', \
     'data_mean_square.csv' every ::1 using 3:(strcol(1) eq 'bernoulli-scan-0.01' ? $4 : NaN) with lines lw 2 title 'bernoulli-scan-0.01 (α·c_1 = 0.01)', \
     'data_mean_square.csv' every ::1 using 3:(strcol(1) eq 'bernoulli-scan-0.03' ? $4 : NaN) with lines lw 2 title 'bernoulli-scan-0.03 (α·c_1 = 0.03)', \
     'data_mean_square.csv' every ::1 using 3:(strcol(1) eq 'bernoulli-scan-0.05' ? $4 : NaN) with lines lw 2 title 'bernoulli-scan-0.05 (α·c_1 = 0.05)'
set terminal svg size 900,600 dynamic enhanced
set output 'mean-square.svg'
replot
unset output
