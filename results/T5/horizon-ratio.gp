# horizon-ratio.gp - written by akm from the CSV files in this folder.
# Re-render horizon-ratio.png and horizon-ratio.svg from inside this folder:  gnuplot horizon-ratio.gp
set datafile separator ','
set datafile missing NaN
set title 'T5 horizon ratio τ^{EMA}/τ^{AK} after the shift, fitted rates against eq:horizon'
set xlabel 'predicted 1 + ηλ_i/(1−β)  (λ̂_i for the normalized key)'
set ylabel 'measured (1 − r̂_{AK})/(1 − r̂_{EMA})'
set grid
set key outside top left horizontal
set key inside left top vertical Left reverse
set xrange [0.8:5.75]
set yrange [0.5:6.25]
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'horizon-ratio.png'
plot 'data_horizon.csv' every ::1 using 7:(strcol(4) eq 'raw/same-basis' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'raw key, same-basis', \
     'data_horizon.csv' every ::1 using 7:(strcol(4) eq 'raw/rotated' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'raw key, rotated', \
     'data_horizon.csv' every ::1 using 7:(strcol(4) eq 'normalized/same-basis' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'normalized key, same-basis', \
     'data_horizon.csv' every ::1 using 7:(strcol(4) eq 'normalized/rotated' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'normalized key, rotated', \
     x title 'measured = predicted' lw 2 lc rgb 'black'
set terminal svg size 900,600 dynamic enhanced
set output 'horizon-ratio.svg'
replot
unset output
