# local-rates.gp - written by akm from the CSV files in this folder.
# Re-render local-rates.png and local-rates.svg from inside this folder:  gnuplot local-rates.gp
set datafile separator ','
set datafile missing NaN
set title 'T10 local rates at w* on u_1: fitted 1 − ρ vs 1 − ρ(A_i); soft labels α·c_1 = 0.05, Bernoulli 3·10^{-4}'
set xlabel 'direction index i (eigenvalues descending)'
set ylabel '1 − spectral radius'
set logscale y
set grid
set key outside top left horizontal
set xrange [0:33]
set format y '10^{%T}'
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'local-rates.png'
plot 'data_rates.csv' every ::1 using 3:(strcol(1) eq 'soft' ? $16 : NaN):14 with yerrorbars pt 7 ps 0.8 title 'fitted, soft labels', \
     'data_rates.csv' every ::1 using 3:(strcol(1) eq 'soft' ? $15 : NaN) with lines lw 2 title '1 − ρ(A_i), soft', \
     'data_rates.csv' every ::1 using 3:(strcol(1) eq 'bernoulli' ? $16 : NaN):14 with yerrorbars pt 7 ps 0.8 title 'fitted, bernoulli labels', \
     'data_rates.csv' every ::1 using 3:(strcol(1) eq 'bernoulli' ? $15 : NaN) with lines lw 2 title '1 − ρ(A_i), bernoulli', \
     'data_rates.csv' every ::1 using 3:(strcol(1) eq 'soft' ? 1-$11 : NaN) with lines lw 2 dt 2 lc rgb 'gray40' title '1 − √β̃_i (underdamped optimum)'
set terminal svg size 900,600 dynamic enhanced
set output 'local-rates.svg'
replot
unset output
