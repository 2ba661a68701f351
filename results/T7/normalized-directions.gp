# normalized-directions.gp - written by akm from the CSV files in this folder.
# Re-render normalized-directions.png and normalized-directions.svg from inside this folder:  gnuplot normalized-directions.gp
set datafile separator ','
set datafile missing NaN
set title 'T7 normalized key, Student-t ν=3, η=0.5: E[u_iᵀP_5u_i] at every input scale vs (β−ηλ̂_i)^5'
set xlabel 'λ̂_i (Monte-Carlo, Student-t ν=3)'
set ylabel 'mean transport at lag 5'
set logscale x
set grid
set key outside top left horizontal
set xrange [0.005:0.7]
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'normalized-directions.png'
plot 'data_normalized_directions.csv' every ::1 using 2:(column(1) == 0.001 ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 's = 0.001', \
     'data_normalized_directions.csv' every ::1 using 2:(column(1) == 0.01 ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 's = 0.01', \
     'data_normalized_directions.csv' every ::1 using 2:(column(1) == 0.1 ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 's = 0.1', \
     'data_normalized_directions.csv' every ::1 using 2:(column(1) == 1 ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 's = 1', \
     'data_normalized_directions.csv' every ::1 using 2:(column(1) == 10 ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 's = 10', \
     'data_normalized_directions.csv' every ::1 using 2:(column(1) == 100 ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 's = 100', \
     'data_normalized_directions.csv' every ::1 using 2:(column(1) == 1000 ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 's = 1000', \
     'data_normalized_directions.csv' every ::1 using 2:(column(1) == 1 ? $5 : NaN) with lines lw 2 title '(β−ηλ̂_i)^5'
set terminal svg size 900,600 dynamic enhanced
set output 'normalized-directions.svg'
replot
unset output
