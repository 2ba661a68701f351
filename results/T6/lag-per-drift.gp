# lag-per-drift.gp - written by akm from the CSV files in this folder.
# Re-render lag-per-drift.png and lag-per-drift.svg from inside this folder:  gnuplot lag-per-drift.gp
set datafile separator ','
set datafile missing NaN
set title 'T6 steady lag per unit drift at equal drift Δ_i = Δ_0: b/(1−b), b = β̃_i (AK) or β (EMA)'
set xlabel 'per-step contraction b of the direction'
set ylabel 'steady lag / Δ'
set logscale y
set grid
set key outside top left horizontal
set key left top
set xrange [0.45:0.95]
set yrange [0.5:20]
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'lag-per-drift.png'
plot 'data_steady.csv' every ::1 using 8:(strcol(5) eq 'uniform/ak-raw/spiked' ? $15 : NaN):16 with yerrorbars pt 7 ps 0.8 title 'AK raw, spiked', \
     'data_steady.csv' every ::1 using 8:(strcol(5) eq 'uniform/ak-normalized/spiked' ? $15 : NaN):16 with yerrorbars pt 7 ps 0.8 title 'AK normalized, spiked', \
     'data_steady.csv' every ::1 using 8:(strcol(5) eq 'uniform/ema/spiked' ? $15 : NaN):16 with yerrorbars pt 7 ps 0.8 title 'EMA, spiked', \
     'data_steady.csv' every ::1 using 8:(strcol(5) eq 'uniform/ak-raw/power' ? $15 : NaN):16 with yerrorbars pt 7 ps 0.8 title 'AK raw, power', \
     'data_steady.csv' every ::1 using 8:(strcol(5) eq 'uniform/ak-normalized/power' ? $15 : NaN):16 with yerrorbars pt 7 ps 0.8 title 'AK normalized, power', \
     'data_steady.csv' every ::1 using 8:(strcol(5) eq 'uniform/ema/power' ? $15 : NaN):16 with yerrorbars pt 7 ps 0.8 title 'EMA, power', \
     x/(1-x) title 'b/(1−b) (prop:nc1, attained)' lw 2 lc rgb 'black'
set terminal svg size 900,600 dynamic enhanced
set output 'lag-per-drift.svg'
replot
unset output
