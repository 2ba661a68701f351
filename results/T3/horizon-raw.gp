# horizon-raw.gp - written by akm from the CSV files in this folder.
# Re-render horizon-raw.png and horizon-raw.svg from inside this folder:  gnuplot horizon-raw.gp
set datafile separator ','
set datafile missing NaN
set title 'T3 horizon, raw key: summed impulse response vs τ_i = 1/(1−β̃_i)'
set xlabel 'λ_i'
set ylabel 'Σ_k E[u_iᵀP_k u_i]'
set logscale x
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'horizon-raw.png'
plot 'data_horizon_raw.csv' every ::1 using 3:(strcol(1) eq 'spiked' ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'measured (spiked)', \
     'data_horizon_raw.csv' every ::1 using 3:(strcol(1) eq 'spiked' ? $4 : NaN) with lines lw 2 title 'τ_i (spiked)', \
     'data_horizon_raw.csv' every ::1 using 3:(strcol(1) eq 'power' ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'measured (power)', \
     'data_horizon_raw.csv' every ::1 using 3:(strcol(1) eq 'power' ? $4 : NaN) with lines lw 2 title 'τ_i (power)', \
     10.000000000000002 title 'EMA 1/(1−β)' lc rgb 'gray40' dt 2
set terminal svg size 900,600 dynamic enhanced
set output 'horizon-raw.svg'
replot
unset output
