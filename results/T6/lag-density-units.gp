# lag-density-units.gp - written by akm from the CSV files in this folder.
# Re-render lag-density-units.png and lag-density-units.svg from inside this folder:  gnuplot lag-density-units.gp
set datafile separator ','
set datafile missing NaN
set title 'T6 AK steady lag, density drift, in ceiling units (normalized c_0/η, raw analog c_0/(η trΣ))'
set xlabel 'ηλ̂_i (normalized) or ηλ_i (raw) = β − β̃_i'
set ylabel 'steady lag / unit'
set logscale x
set logscale y
set grid
set key outside top left horizontal
set key left top
set format x '10^{%L}'
set format y '10^{%L}'
set yrange [1e-2:2]
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'lag-density-units.png'
plot 'data_steady.csv' every ::1 using 18:(strcol(5) eq 'density/ak-raw/spiked' ? $19 : NaN):20 with yerrorbars pt 7 ps 0.8 title 'AK raw, spiked', \
     'data_steady.csv' every ::1 using 18:(strcol(5) eq 'density/ak-normalized/spiked' ? $19 : NaN):20 with yerrorbars pt 7 ps 0.8 title 'AK normalized, spiked', \
     'data_steady.csv' every ::1 using 18:(strcol(5) eq 'density/ak-raw/power' ? $19 : NaN):20 with yerrorbars pt 7 ps 0.8 title 'AK raw, power', \
     'data_steady.csv' every ::1 using 18:(strcol(5) eq 'density/ak-normalized/power' ? $19 : NaN):20 with yerrorbars pt 7 ps 0.8 title 'AK normalized, power', \
     (0.9-x)*x/(0.1+x) title '(β−x)x/(1−β+x)' lw 2 lc rgb 'black', \
     0.9 title 'ceiling β' lw 2 dt 2 lc rgb 'black'
set terminal svg size 900,600 dynamic enhanced
set output 'lag-density-units.svg'
replot
unset output
