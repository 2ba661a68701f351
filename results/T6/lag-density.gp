# lag-density.gp - written by akm from the CSV files in this folder.
# Re-render lag-density.png and lag-density.svg from inside this folder:  gnuplot lag-density.gp
set datafile separator ','
set datafile missing NaN
set title 'T6 steady lag under density drift Δ_i = c_0λ̂_i (β = 0.9, η = 0.5, c_0 = 1)'
set xlabel 'λ̂_i (eigenvalue of Σ̂)'
set ylabel 'steady lag  −E[(M_t − M^*_t)u_i]'
set logscale x
set logscale y
set grid
set key outside top left horizontal
set key left top
set format y '10^{%L}'
set format x '10^{%L}'
set xrange [2e-3:1]
set yrange [1e-2:10]
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'lag-density.png'
plot 'data_steady.csv' every ::1 using 7:(strcol(5) eq 'density/ak-normalized/spiked' ? $12 : NaN):13 with yerrorbars pt 7 ps 0.8 title 'AK normalized, spiked', \
     'data_steady.csv' every ::1 using 7:(strcol(5) eq 'density/ema/spiked' ? $12 : NaN):13 with yerrorbars pt 7 ps 0.8 title 'EMA, spiked', \
     'data_steady.csv' every ::1 using 7:(strcol(5) eq 'density/ak-normalized/power' ? $12 : NaN):13 with yerrorbars pt 7 ps 0.8 title 'AK normalized, power', \
     'data_steady.csv' every ::1 using 7:(strcol(5) eq 'density/ema/power' ? $12 : NaN):13 with yerrorbars pt 7 ps 0.8 title 'EMA, power', \
     1*(0.9-0.5*x)*x/(0.1+0.5*x) title 'AK: β̃c_0λ̂/(1−β̃)' lw 2 lc rgb 'black', \
     1.8 title 'AK ceiling βc_0/η (cor:nc2)' lw 2 dt 2 lc rgb 'black', \
     9*x title 'EMA: βc_0λ̂/(1−β)' lw 2 lc rgb 'gray50'
set terminal svg size 900,600 dynamic enhanced
set output 'lag-density.svg'
replot
unset output
