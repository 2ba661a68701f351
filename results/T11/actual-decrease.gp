# actual-decrease.gp - written by akm from the CSV files in this folder.
# Re-render actual-decrease.png and actual-decrease.svg from inside this folder:  gnuplot actual-decrease.gp
set datafile separator ','
set datafile missing NaN
set title 'T11 actual loss decrease at α = 0.000147: |dec(Ḡ) − dec(M)| for random M, ‖M‖ = ‖Ḡ‖'
set xlabel 'first-order shortfall 1 − ⟨M,Ḡ⟩/‖Ḡ‖^2'
set ylabel '|dec(Ḡ) − dec(M)| / (α‖Ḡ‖^2)'
set logscale x
set logscale y
set grid
set key outside top left horizontal
set arrow from 0.00185909, graph 0 to 0.00185909, graph 1 nohead dt 2 lc rgb 'gray40'
set label 'M ∝ Ḡ guaranteed better →' at 0.00241682, graph 0.08
set xrange [1e-9:2]
set format y '10^{%T}'
set format x '10^{%T}'
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'actual-decrease.png'
plot 'data_first_order.csv' every ::1 using 4:(column(7) == 0 ? $6 : NaN) with points pt 7 ps 0.8 title 'M ∝ Ḡ decreases more', \
     'data_first_order.csv' every ::1 using 4:(column(7) == 1 ? $6 : NaN) with points pt 7 ps 0.8 title 'M decreases more (second order)', \
     x title 'first-order gap α(‖Ḡ‖^2 − ⟨M,Ḡ⟩)' lw 2 dt 2 lc rgb 'black'
set terminal svg size 900,600 dynamic enhanced
set output 'actual-decrease.svg'
replot
unset output
