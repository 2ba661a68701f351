# gains.gp - written by akm from the CSV files in this folder.
# Re-render gains.png and gains.svg from inside this folder:  gnuplot gains.gp
set datafile separator ','
set datafile missing NaN
set title 'T9 buffer gain along span eigenvectors, all (p, n_s), window average over t ∈ [51, 200]'
set xlabel 'λ̂_k (eigenvalue of Σ̂ of the data set)'
set ylabel 'w_kᵀE[M]u_k / w_kᵀGu_k,  w_k = Gu_k,  G = Ĝ (AK), Ḡ (EMA)'
set logscale x
set logscale y
set grid
set key outside top left horizontal
set xrange [5e-5:0.5]
set format x '10^{%L}'
set yrange [0.5:12]
set key inside left bottom vertical
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'gains.png'
plot 'data_gains.csv' every ::1 using 5:(strcol(2) eq 'AK' ? $9 : NaN):10 with yerrorbars pt 7 ps 0.8 title 'AK measured', \
     'data_gains.csv' every ::1 using 5:(strcol(2) eq 'EMA' ? $9 : NaN):10 with yerrorbars pt 7 ps 0.8 title 'EMA measured', \
     1/(0.125+x) title 'AK 1/(μ+λ̂), μ = 0.125' lw 2 dt 2, \
     1 title 'EMA (1)' lw 2 lc rgb 'gray40'
set terminal svg size 900,600 dynamic enhanced
set output 'gains.svg'
replot
unset output
