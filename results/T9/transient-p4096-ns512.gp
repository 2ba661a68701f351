# transient-p4096-ns512.gp - written by akm from the CSV files in this folder.
# Re-render transient-p4096-ns512.png and transient-p4096-ns512.svg from inside this folder:  gnuplot transient-p4096-ns512.gp
set datafile separator ','
set datafile missing NaN
set title 'T9 projection of E[M_t] on span eigenvectors u_k, p = 4096, n_s = 512'
set xlabel 'step t'
set ylabel 'E[M_t]u_k / lim E[M_t]u_k, on Ĝu_k (lines: 1 − β̃_k^t, 1 − β^t)'
set logscale x
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
set linetype 9 lc rgb '#666666'
set linetype 10 lc rgb '#666666'
set key inside right bottom vertical
set yrange [0:1.15]
set xrange [0.9:220.00000000000003]
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'transient-p4096-ns512.png'
plot 'data_transient_p4096-ns512.csv' every ::1 using 6:(strcol(3) eq 'AK-top1' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'AK u_1 (λ̂ = 0.22)', \
     'data_transient_p4096-ns512.csv' every ::1 using 6:(strcol(3) eq 'AK-top1' ? $7 : NaN) with lines lw 2 notitle, \
     'data_transient_p4096-ns512.csv' every ::1 using 6:(strcol(3) eq 'AK-top3' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'AK u_3 (λ̂ = 0.032)', \
     'data_transient_p4096-ns512.csv' every ::1 using 6:(strcol(3) eq 'AK-top3' ? $7 : NaN) with lines lw 2 notitle, \
     'data_transient_p4096-ns512.csv' every ::1 using 6:(strcol(3) eq 'AK-middle' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'AK u_{mid} (λ̂ = 0.0012)', \
     'data_transient_p4096-ns512.csv' every ::1 using 6:(strcol(3) eq 'AK-middle' ? $7 : NaN) with lines lw 2 notitle, \
     'data_transient_p4096-ns512.csv' every ::1 using 6:(strcol(3) eq 'AK-bottom' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'AK u_{bottom} (λ̂ = 0.00025)', \
     'data_transient_p4096-ns512.csv' every ::1 using 6:(strcol(3) eq 'AK-bottom' ? $7 : NaN) with lines lw 2 notitle, \
     'data_transient_p4096-ns512.csv' every ::1 using 6:(strcol(3) eq 'EMA-top1' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'EMA u_1 (λ̂ = 0.22)', \
     'data_transient_p4096-ns512.csv' every ::1 using 6:(strcol(3) eq 'EMA-top1' ? $7 : NaN) with lines lw 2 notitle
set terminal svg size 900,600 dynamic enhanced
set output 'transient-p4096-ns512.svg'
replot
unset output
