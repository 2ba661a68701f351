# taylor-residual.gp - written by akm from the CSV files in this folder.
# Re-render taylor-residual.png and taylor-residual.svg from inside this folder:  gnuplot taylor-residual.gp
set datafile separator ','
set datafile missing NaN
set title 'T11 Taylor residual |L(θ−αM) − [L − α⟨M,Ḡ⟩ + α^2/2 M^THM]| (logistic loss, exact data set; dashed: fit window)'
set xlabel 'α'
set ylabel '|residual|'
set logscale x
set logscale y
set grid
set key outside top left horizontal
set arrow from 1.47358e-05, graph 0 to 1.47358e-05, graph 1 nohead dt 2 lc rgb 'gray40'
set arrow from 0.00147358, graph 0 to 0.00147358, graph 1 nohead dt 2 lc rgb 'gray40'
set format y '10^{%T}'
set format x '10^{%T}'
set yrange [1e-24:*]
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'taylor-residual.png'
plot 'data_residual.csv' every ::1 using 2:(strcol(1) eq 'G' ? $4 : NaN) with lines lw 2 title 'slope 3: |D^3L[M,M,M]| α^3/6', \
     'data_residual.csv' every ::1 using 2:(strcol(1) eq 'G' ? $6 : NaN) with points pt 7 ps 0.8 title 'M ∝ Ḡ, plain difference of losses', \
     'data_residual.csv' every ::1 using 2:(strcol(1) eq 'G' ? $3 : NaN) with points pt 7 ps 0.8 title 'M ∝ Ḡ (stable per-sample form)', \
     'data_residual.csv' every ::1 using 2:(strcol(1) eq 'G' ? $5 : NaN) with lines lw 2 title 'rounding bound (stable form)', \
     'data_residual.csv' every ::1 using 2:(strcol(1) eq 'G' ? $7 : NaN) with lines lw 2 title 'rounding bound (plain difference)', \
     'data_residual.csv' every ::1 using 2:(strcol(1) eq 'R1' ? $3 : NaN) with points pt 7 ps 0.8 title 'random M (R1)'
set terminal svg size 900,600 dynamic enhanced
set output 'taylor-residual.svg'
replot
unset output
