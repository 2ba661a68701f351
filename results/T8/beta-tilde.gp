# beta-tilde.gp - written by akm from the CSV files in this folder.
# Re-render beta-tilde.png and beta-tilde.svg from inside this folder:  gnuplot beta-tilde.gp
set datafile separator ','
set datafile missing NaN
set title 'T8 per-direction contraction, normalized key, n = 64 (β = 0.9, η = 0.5)'
set xlabel 'λ̂_i (eigenvalue of Σ̂);  squares: Σ_i λ̂_i β̃_i at x = ‖Σ̂‖_F^2'
set ylabel 'one-step contraction of E[(M − M^*)u_i]'
set logscale x
set grid
set key outside top left horizontal
set key at graph 0.02, graph 0.78 left top vertical Left reverse
set format x '10^{%L}'
set xrange [1e-3:1]
set yrange [0.35:0.95]
set linetype 1 lc rgb '#1f4e9c'
set linetype 2 lc rgb '#b22222'
set linetype 3 lc rgb '#1d7a2e'
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'beta-tilde.png'
plot 'data_directions.csv' every ::1 using 5:(strcol(1) eq 'iso-64' ? $7 : NaN):8 with yerrorbars pt 7 ps 0.8 title 'β̃_i, iso-64', \
     'data_directions.csv' every ::1 using 5:(strcol(1) eq 'spiked-64' ? $7 : NaN):8 with yerrorbars pt 7 ps 0.8 title 'β̃_i, spiked-64', \
     'data_directions.csv' every ::1 using 5:(strcol(1) eq 'power-64' ? $7 : NaN):8 with yerrorbars pt 7 ps 0.8 title 'β̃_i, power-64', \
     'data_weighted.csv' every ::1 using 4:(strcol(1) eq 'iso-64' ? $8 : NaN):9 with yerrorbars pt 5 ps 2 lc rgb '#1f4e9c' title 'Σλ̂_iβ̃_i, iso-64', \
     'data_weighted.csv' every ::1 using 4:(strcol(1) eq 'spiked-64' ? $8 : NaN):9 with yerrorbars pt 5 ps 2 lc rgb '#b22222' title 'Σλ̂_iβ̃_i, spiked-64', \
     'data_weighted.csv' every ::1 using 4:(strcol(1) eq 'power-64' ? $8 : NaN):9 with yerrorbars pt 5 ps 2 lc rgb '#1d7a2e' title 'Σλ̂_iβ̃_i, power-64', \
     0.9-0.5*x title 'β − ηλ̂' lw 2 lc rgb 'black', \
     0.9 title 'β (EMA rate, upper bracket)' lw 2 dt 2 lc rgb 'gray40', \
     0.4 title 'β − η (lower bracket)' lw 2 dt 3 lc rgb 'gray40', \
     0.8921875 title 'isotropic β − η/64' lw 1 dt 4 lc rgb 'gray60'
set terminal svg size 900,600 dynamic enhanced
set output 'beta-tilde.svg'
replot
unset output
