# first-order-distribution.gp - written by akm from the CSV files in this folder.
# Re-render first-order-distribution.png and first-order-distribution.svg from inside this folder:  gnuplot first-order-distribution.gp
set datafile separator ','
set datafile missing NaN
set title 'T11 first-order decrease ⟨M,Ḡ⟩/‖Ḡ‖^2 of 20000 random M with ‖M‖ = ‖Ḡ‖ (n = 32)'
set xlabel '⟨M,Ḡ⟩ / (‖M‖‖Ḡ‖)'
set ylabel 'fraction of random M'
set grid
set key outside top left horizontal
set xrange [-1.05:1.05]
set style fill solid 0.5
set arrow from 1, graph 0 to 1, graph 1 nohead lw 3 lc rgb '#b2182b'
set label 'M ∝ Ḡ (Cauchy–Schwarz maximum)' at 0.97, graph 0.9 right tc rgb '#b2182b'
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'first-order-distribution.png'
plot 'data_first_order_hist.csv' every ::1 using 1:2 with boxes lc rgb '#2166ac' title 'Gaussian M'
set terminal svg size 900,600 dynamic enhanced
set output 'first-order-distribution.svg'
replot
unset output
