# preconditioner.gp - written by akm from the CSV files in this folder.
# Re-render preconditioner.png and preconditioner.svg from inside this folder:  gnuplot preconditioner.gp
set datafile separator ','
set datafile missing NaN
set title 'T9 preconditioner weights 1/(μ+λ̂_k), β = 0.9, η = 0.8: every ratio ≤ 1 + η/(1−β) = 9'
set xlabel 'k (span eigen-directions, descending)'
set ylabel '1/(μ+λ̂_k)'
set logscale x
set logscale y
set grid
set key outside top left horizontal
set yrange [0.6222222222222222:11.200000000000001]
set xrange [1:1100]
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'preconditioner.png'
plot 'data_spectrum.csv' every ::1 using 4:(strcol(1) eq 'p512-ns64' ? $7 : NaN) with lines lw 2 title 'p = 512, n_s = 64', \
     'data_spectrum.csv' every ::1 using 4:(strcol(1) eq 'p512-ns128' ? $7 : NaN) with lines lw 2 title 'p = 512, n_s = 128', \
     'data_spectrum.csv' every ::1 using 4:(strcol(1) eq 'p4096-ns512' ? $7 : NaN) with lines lw 2 title 'p = 4096, n_s = 512', \
     'data_spectrum.csv' every ::1 using 4:(strcol(1) eq 'p4096-ns1024' ? $7 : NaN) with lines lw 2 title 'p = 4096, n_s = 1024', \
     8 title '1/μ (λ̂ = 0, off the span)' lw 2 dt 2 lc rgb 'black', \
     0.8888888889 title '1/(μ+1) (λ̂ = 1)' lw 2 dt 3 lc rgb 'black'
set terminal svg size 900,600 dynamic enhanced
set output 'preconditioner.svg'
replot
unset output
