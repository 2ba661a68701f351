# rates-raw.gp - written by akm from the CSV files in this folder.
# Re-render rates-raw.png and rates-raw.svg from inside this folder:  gnuplot rates-raw.gp
set datafile separator ','
set datafile missing NaN
set title 'T5 fitted contraction rate after the shift, raw key (η = 0.004, β = 0.9)'
set xlabel 'λ_i (eigenvalue of Σ_1)'
set ylabel 'per-step contraction of E[T u_i]'
set logscale x
set grid
set key outside top left horizontal
set xrange [0.25:200]
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'rates-raw.png'
plot 'data_rates.csv' every ::1 using 16:(strcol(4) eq 'ak-raw/same-basis' ? $14 : NaN):15 with yerrorbars pt 7 ps 0.8 title 'AK, same-basis', \
     'data_rates.csv' every ::1 using 16:(strcol(4) eq 'ema/same-basis' ? $14 : NaN):15 with yerrorbars pt 7 ps 0.8 title 'EMA, same-basis', \
     'data_rates.csv' every ::1 using 16:(strcol(4) eq 'ak-raw/rotated' ? $14 : NaN):15 with yerrorbars pt 7 ps 0.8 title 'AK, rotated', \
     'data_rates.csv' every ::1 using 16:(strcol(4) eq 'ema/rotated' ? $14 : NaN):15 with yerrorbars pt 7 ps 0.8 title 'EMA, rotated', \
     0.9 - 0.004*x title 'AK theory β̃ = β − ηλ' lw 2 lc rgb 'black', \
     0.9 title 'EMA theory β' lw 2 dt 2 lc rgb 'gray40'
set terminal svg size 900,600 dynamic enhanced
set output 'rates-raw.svg'
replot
unset output
