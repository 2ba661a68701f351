# linearization-bias.gp - written by akm from the CSV files in this folder.
# Re-render linearization-bias.png and linearization-bias.svg from inside this folder:  gnuplot linearization-bias.gp
set datafile separator ','
set datafile missing NaN
set title 'T10 Bernoulli labels: (1 − ρ_{fit})/(1 − ρ(A_i)) − 1, the label-noise spread grows with α·c_1 (finding; 3·10^{-4} is checked)'
set xlabel 'α·c_1'
set ylabel 'relative deviation of 1 − ρ'
set logscale x
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'linearization-bias.png'
plot 'data_linearization_bias.csv' every ::1 using 2:(strcol(3) eq 'u1' ? $4 : NaN):5 with yerrorbars pt 7 ps 0.8 title 'u1', \
     'data_linearization_bias.csv' every ::1 using 2:(strcol(3) eq 'u2' ? $4 : NaN):5 with yerrorbars pt 7 ps 0.8 title 'u2', \
     'data_linearization_bias.csv' every ::1 using 2:(strcol(3) eq 'u3' ? $4 : NaN):5 with yerrorbars pt 7 ps 0.8 title 'u3', \
     'data_linearization_bias.csv' every ::1 using 2:(strcol(3) eq 'u4' ? $4 : NaN):5 with yerrorbars pt 7 ps 0.8 title 'u4', \
     0 notitle lc rgb 'black'
set terminal svg size 900,600 dynamic enhanced
set output 'linearization-bias.svg'
replot
unset output
