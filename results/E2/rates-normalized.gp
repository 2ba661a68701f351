# rates-normalized.gp - written by akm from the CSV files in this folder.
# Re-render rates-normalized.png and rates-normalized.svg from inside this folder:  gnuplot rates-normalized.gp
set datafile separator ','
set datafile missing NaN
set title 'E2 normalized key: measured contraction rate vs |β̃_i| for AR(1) keys'
set xlabel 'λ̂_i'
set ylabel 'rate per step'
set logscale x
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'rates-normalized.png'
plot 'rates_normalized.csv' every ::1 using 3:(column(1) == 0 ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'measured, ρ = 0', \
     'rates_normalized.csv' every ::1 using 3:(column(1) == 0.5 ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'measured, ρ = 0.5', \
     'rates_normalized.csv' every ::1 using 3:(column(1) == 0.9 ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'measured, ρ = 0.9', \
     'rates_normalized.csv' every ::1 using 3:(column(1) == 0.99 ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'measured, ρ = 0.99', \
     'rates_normalized.csv' every ::1 using 3:(column(1) == 0 ? $4 : NaN) with lines lw 2 title '|β̃_i| (independent keys)'
set terminal svg size 900,600 dynamic enhanced
set output 'rates-normalized.svg'
replot
unset output
