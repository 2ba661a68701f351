# ratio.gp - written by akm from the CSV files in this folder.
# Re-render ratio.png and ratio.svg from inside this folder:  gnuplot ratio.gp
set datafile separator ','
set datafile missing NaN
set title 'T21: AK against EMA per direction, forgetting 1 + r_i and window 1/(1 + r_i)'
set xlabel 'λ̂_i'
set ylabel 'AK / EMA'
set logscale x
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'ratio.png'
plot 'data_ratio.csv' every ::1 using 3:(strcol(1) eq 'forgetting' ? $6 : NaN):7 with yerrorbars pt 7 ps 0.8 title 'measured forgetting', \
     'data_ratio.csv' every ::1 using 3:(strcol(1) eq 'forgetting' ? $5 : NaN) with lines lw 2 title 'predicted forgetting', \
     'data_ratio.csv' every ::1 using 3:(strcol(1) eq 'window' ? $6 : NaN):7 with yerrorbars pt 7 ps 0.8 title 'measured window', \
     'data_ratio.csv' every ::1 using 3:(strcol(1) eq 'window' ? $5 : NaN) with lines lw 2 title 'predicted window', \
     1 title 'EMA (ratio 1)' lc rgb 'gray40' dt 2
set terminal svg size 900,600 dynamic enhanced
set output 'ratio.svg'
replot
unset output
