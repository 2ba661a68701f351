# t3-sd-normalized.gp - written by akm from the CSV files in this folder.
# Re-render t3-sd-normalized.png and t3-sd-normalized.svg from inside this folder:  gnuplot t3-sd-normalized.gp
set datafile separator ','
set datafile missing NaN
set title 'E1: SD of u_iᵀP_k u_i over trials, T3 setting (normalized key): predicted from S^k vs observed'
set xlabel 'lag k'
set ylabel 'standard deviation'
set logscale y
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 't3-sd-normalized.png'
plot 't3_variances_normalized.csv' every ::1 using 2:(strcol(1) eq 'u1' ? $9 : NaN) with points pt 7 ps 0.8 title 'observed u1', \
     't3_variances_normalized.csv' every ::1 using 2:(strcol(1) eq 'u1' ? $8 : NaN) with lines lw 2 title 'predicted u1', \
     't3_variances_normalized.csv' every ::1 using 2:(strcol(1) eq 'u2' ? $9 : NaN) with points pt 7 ps 0.8 title 'observed u2', \
     't3_variances_normalized.csv' every ::1 using 2:(strcol(1) eq 'u2' ? $8 : NaN) with lines lw 2 title 'predicted u2', \
     't3_variances_normalized.csv' every ::1 using 2:(strcol(1) eq 'u3' ? $9 : NaN) with points pt 7 ps 0.8 title 'observed u3', \
     't3_variances_normalized.csv' every ::1 using 2:(strcol(1) eq 'u3' ? $8 : NaN) with lines lw 2 title 'predicted u3', \
     't3_variances_normalized.csv' every ::1 using 2:(strcol(1) eq 'u4' ? $9 : NaN) with points pt 7 ps 0.8 title 'observed u4', \
     't3_variances_normalized.csv' every ::1 using 2:(strcol(1) eq 'u4' ? $8 : NaN) with lines lw 2 title 'predicted u4', \
     't3_variances_normalized.csv' every ::1 using 2:(strcol(1) eq 'u17' ? $9 : NaN) with points pt 7 ps 0.8 title 'observed u17', \
     't3_variances_normalized.csv' every ::1 using 2:(strcol(1) eq 'u17' ? $8 : NaN) with lines lw 2 title 'predicted u17', \
     't3_variances_normalized.csv' every ::1 using 2:(strcol(1) eq 'u32' ? $9 : NaN) with points pt 7 ps 0.8 title 'observed u32', \
     't3_variances_normalized.csv' every ::1 using 2:(strcol(1) eq 'u32' ? $8 : NaN) with lines lw 2 title 'predicted u32'
set terminal svg size 900,600 dynamic enhanced
set output 't3-sd-normalized.svg'
replot
unset output
