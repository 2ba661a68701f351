# lag-buildup.gp - written by akm from the CSV files in this folder.
# Re-render lag-buildup.png and lag-buildup.svg from inside this folder:  gnuplot lag-buildup.gp
set datafile separator ','
set datafile missing NaN
set title 'T6 lag build-up from the target, spiked, uniform drift: L_t/Δ = b/(1−b)·(1 − b^t)'
set xlabel 'step t'
set ylabel 'lag / Δ'
set grid
set key outside top left horizontal
set xrange [0:61]
set linetype 1 lc rgb '#1f4e9c'
set linetype 2 lc rgb '#1f4e9c' dt 1
set linetype 3 lc rgb '#b22222'
set linetype 4 lc rgb '#b22222' dt 2
set linetype 5 lc rgb '#1d7a2e'
set linetype 6 lc rgb '#1d7a2e' dt 1
set linetype 7 lc rgb '#8a5a00'
set linetype 8 lc rgb '#8a5a00' dt 1
set linetype 9 lc rgb '#6a3d9a'
set linetype 10 lc rgb '#6a3d9a' dt 1
set linetype 11 lc rgb '#555555'
set linetype 12 lc rgb '#555555' dt 1
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'lag-buildup.png'
plot 'data_buildup.csv' every ::1 using 6:(strcol(5) eq 'uniform/ak-normalized/spiked/u1' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'AK u1, λ̂ = 0.47', \
     'data_buildup.csv' every ::1 using 6:(strcol(5) eq 'uniform/ak-normalized/spiked/u1' ? $7 : NaN) with lines lw 2 notitle, \
     'data_buildup.csv' every ::1 using 6:(strcol(5) eq 'uniform/ema/spiked/u1' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'EMA (all u_i)', \
     'data_buildup.csv' every ::1 using 6:(strcol(5) eq 'uniform/ema/spiked/u1' ? $7 : NaN) with lines lw 2 notitle, \
     'data_buildup.csv' every ::1 using 6:(strcol(5) eq 'uniform/ak-normalized/spiked/u2' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'AK u2, λ̂ = 0.223', \
     'data_buildup.csv' every ::1 using 6:(strcol(5) eq 'uniform/ak-normalized/spiked/u2' ? $7 : NaN) with lines lw 2 notitle, \
     'data_buildup.csv' every ::1 using 6:(strcol(5) eq 'uniform/ak-normalized/spiked/u3' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'AK u3, λ̂ = 0.0975', \
     'data_buildup.csv' every ::1 using 6:(strcol(5) eq 'uniform/ak-normalized/spiked/u3' ? $7 : NaN) with lines lw 2 notitle, \
     'data_buildup.csv' every ::1 using 6:(strcol(5) eq 'uniform/ak-normalized/spiked/u4' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'AK u4, λ̂ = 0.0345', \
     'data_buildup.csv' every ::1 using 6:(strcol(5) eq 'uniform/ak-normalized/spiked/u4' ? $7 : NaN) with lines lw 2 notitle, \
     'data_buildup.csv' every ::1 using 6:(strcol(5) eq 'uniform/ak-normalized/spiked/u17' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'AK u17, λ̂ = 0.00627', \
     'data_buildup.csv' every ::1 using 6:(strcol(5) eq 'uniform/ak-normalized/spiked/u17' ? $7 : NaN) with lines lw 2 notitle
set terminal svg size 900,600 dynamic enhanced
set output 'lag-buildup.svg'
replot
unset output
