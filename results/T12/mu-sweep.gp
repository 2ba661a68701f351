# mu-sweep.gp - written by akm from the CSV files in this folder.
# Re-render mu-sweep.png and mu-sweep.svg from inside this folder:  gnuplot mu-sweep.gp
set datafile separator ','
set datafile missing NaN
set title 'T12 one functional, two norms: efficiency of M*(μ) = Ĝ(μI+Σ̂)^{-1}, cond(Σ̂) = 10^6'
set xlabel 'ridge μ = (1−β)/η'
set ylabel '⟨M,Ĝ⟩ / (N(M) · max_{N=1}⟨M,Ĝ⟩)'
set logscale x
set grid
set key outside top left horizontal
set yrange [0:1.1]
set format x '10^{%T}'
set key inside center right vertical
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'mu-sweep.png'
plot 'data_mu_sweep.csv' every ::1 using 1:(strcol(2) eq 'J_w' ? $3 : NaN) with linespoints lw 1.5 pt 7 ps 0.8 title 'norm ‖M‖_F (J_w): optimum ∝ Ĝ', \
     'data_mu_sweep.csv' every ::1 using 1:(strcol(2) eq 'J_f' ? $3 : NaN) with linespoints lw 1.5 pt 7 ps 0.8 title 'norm E‖Mx̂‖² (J_f): optimum ∝ ĜΣ̂^{-1}', \
     'data_mu_sweep.csv' every ::1 using 1:(strcol(2) eq 'Tikhonov' ? $3 : NaN) with lines lw 2 title 'norm μ‖M‖²+E‖Mx̂‖²: optimum ∝ M*'
set terminal svg size 900,600 dynamic enhanced
set output 'mu-sweep.svg'
replot
unset output
