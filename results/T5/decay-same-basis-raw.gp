# decay-same-basis-raw.gp - written by akm from the CSV files in this folder.
# Re-render decay-same-basis-raw.png and decay-same-basis-raw.svg from inside this folder:  gnuplot decay-same-basis-raw.gp
set datafile separator ','
set datafile missing NaN
set title 'T5 tracking after the shift (same-basis, raw key): |E[(M_{t0+k} − M*_1)u_i]|'
set xlabel 'steps k after the shift'
set ylabel '|mean tracking error along u_i|'
set logscale y
set grid
set key outside top left horizontal
set key outside right top vertical Left reverse
set format y '10^{%L}'
set yrange [4.11e-05:*]
set linetype 1 lc rgb '#1f4e9c' dt 1
set linetype 2 lc rgb '#1f4e9c' dt 1
set linetype 3 lc rgb '#7fa6e0' dt 1
set linetype 4 lc rgb '#7fa6e0' dt 2
set linetype 5 lc rgb '#b22222' dt 1
set linetype 6 lc rgb '#b22222' dt 1
set linetype 7 lc rgb '#f08c8c' dt 1
set linetype 8 lc rgb '#f08c8c' dt 2
set linetype 9 lc rgb '#1d7a2e' dt 1
set linetype 10 lc rgb '#1d7a2e' dt 1
set linetype 11 lc rgb '#86cf8f' dt 1
set linetype 12 lc rgb '#86cf8f' dt 2
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'decay-same-basis-raw.png'
plot 'data_trajectory.csv' every ::1 using 5:(strcol(4) eq 'same-basis/ak-raw/u1' ? $10 : NaN) with points pt 7 ps 0.8 title 'AK u1, λ=100', \
     'data_trajectory.csv' every ::1 using 5:(strcol(4) eq 'same-basis/ak-raw/u1' ? $9 : NaN) with lines lw 2 title 'AK theory β̃_i^k |y_0|', \
     'data_trajectory.csv' every ::1 using 5:(strcol(4) eq 'same-basis/ema/u1' ? $10 : NaN) with points pt 7 ps 0.8 title 'EMA u1, λ=100', \
     'data_trajectory.csv' every ::1 using 5:(strcol(4) eq 'same-basis/ema/u1' ? $9 : NaN) with lines lw 2 title 'EMA theory β^k |y_0|', \
     'data_trajectory.csv' every ::1 using 5:(strcol(4) eq 'same-basis/ak-raw/u3' ? $10 : NaN) with points pt 7 ps 0.8 title 'AK u3, λ=10', \
     'data_trajectory.csv' every ::1 using 5:(strcol(4) eq 'same-basis/ak-raw/u3' ? $9 : NaN) with lines lw 2 notitle, \
     'data_trajectory.csv' every ::1 using 5:(strcol(4) eq 'same-basis/ema/u3' ? $10 : NaN) with points pt 7 ps 0.8 title 'EMA u3, λ=10', \
     'data_trajectory.csv' every ::1 using 5:(strcol(4) eq 'same-basis/ema/u3' ? $9 : NaN) with lines lw 2 notitle, \
     'data_trajectory.csv' every ::1 using 5:(strcol(4) eq 'same-basis/ak-raw/u6' ? $10 : NaN) with points pt 7 ps 0.8 title 'AK u6, λ=0.5', \
     'data_trajectory.csv' every ::1 using 5:(strcol(4) eq 'same-basis/ak-raw/u6' ? $9 : NaN) with lines lw 2 notitle, \
     'data_trajectory.csv' every ::1 using 5:(strcol(4) eq 'same-basis/ema/u6' ? $10 : NaN) with points pt 7 ps 0.8 title 'EMA u6, λ=0.5', \
     'data_trajectory.csv' every ::1 using 5:(strcol(4) eq 'same-basis/ema/u6' ? $9 : NaN) with lines lw 2 notitle
set terminal svg size 900,600 dynamic enhanced
set output 'decay-same-basis-raw.svg'
replot
unset output
