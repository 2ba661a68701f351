# mu-interpolation.gp - written by akm from the CSV files in this folder.
# Re-render mu-interpolation.png and mu-interpolation.svg from inside this folder:  gnuplot mu-interpolation.gp
set datafile separator ','
set datafile missing NaN
set title 'T2 [tab:targets]: φ_i = 1/(μ+λ_i) moves from Wiener (μ → 0) to EMA (μ → ∞)'
set xlabel 'ridge μ = (1−β)/η'
set ylabel 'per-direction scaling of M*u_i'
set logscale x
set logscale y
set grid
set key outside top left horizontal
set linetype 1 lc rgb '#1b9e77' lw 2 dt 1
set linetype 5 lc rgb '#1b9e77' lw 2 dt 2
set linetype 2 lc rgb '#d95f02' lw 2 dt 1
set linetype 6 lc rgb '#d95f02' lw 2 dt 2
set linetype 3 lc rgb '#7570b3' lw 2 dt 1
set linetype 7 lc rgb '#7570b3' lw 2 dt 2
set linetype 4 lc rgb '#e7298a' lw 2 dt 1
set linetype 8 lc rgb '#e7298a' lw 2 dt 2
set key inside right top vertical maxrows 4 box opaque samplen 2
set format x '10^{%L}'
set format y '10^{%L}'
set xrange [1e-6:1e6]
set yrange [1e-5:1e4]
set label 'Wiener end: λ_iφ_i = 1  (M* = ḠΣ^{-1})' at graph 0.02, graph 0.52
set label 'EMA end: φ_i/φ_1 = 1  (M* ∝ Ḡ)' at graph 0.60, graph 0.59
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'mu-interpolation.png'
plot 'data_mu.csv' every ::1 using 1:(strcol(2) eq 'u1' ? $4 : NaN) with lines lw 2 title 'λ_iφ_i, λ_i = 10', \
     'data_mu.csv' every ::1 using 1:(strcol(2) eq 'u3' ? $4 : NaN) with lines lw 2 title 'λ_iφ_i, λ_i = 1.5', \
     'data_mu.csv' every ::1 using 1:(strcol(2) eq 'u6' ? $4 : NaN) with lines lw 2 title 'λ_iφ_i, λ_i = 0.48', \
     'data_mu.csv' every ::1 using 1:(strcol(2) eq 'u16' ? $4 : NaN) with lines lw 2 title 'λ_iφ_i, λ_i = 0.09', \
     'data_mu.csv' every ::1 using 1:(strcol(2) eq 'u1' ? $5 : NaN) with lines lw 2 title 'φ_i/φ_1, λ_i = 10', \
     'data_mu.csv' every ::1 using 1:(strcol(2) eq 'u3' ? $5 : NaN) with lines lw 2 title 'φ_i/φ_1, λ_i = 1.5', \
     'data_mu.csv' every ::1 using 1:(strcol(2) eq 'u6' ? $5 : NaN) with lines lw 2 title 'φ_i/φ_1, λ_i = 0.48', \
     'data_mu.csv' every ::1 using 1:(strcol(2) eq 'u16' ? $5 : NaN) with lines lw 2 title 'φ_i/φ_1, λ_i = 0.09', \
     1 notitle lw 1 lc rgb 'black'
set terminal svg size 900,600 dynamic enhanced
set output 'mu-interpolation.svg'
replot
unset output
