# second-moment.gp - written by akm from the CSV files in this folder.
# Re-render second-moment.png and second-moment.svg from inside this folder:  gnuplot second-moment.gp
set datafile separator ','
set datafile missing NaN
set title 'T7 raw key: one-step second moment E[(u_1ᵀP_1u_1)^2] = A_{11} and ρ(A) vs ηλ_{max}s^2'
set xlabel 'ηλ_{max}s^2 (η_{raw}λ_{max} = 0.4 at s = 1)'
set ylabel 'A_{11} (points: measured) and ρ(A)'
set logscale x
set logscale y
set grid
set key outside top left horizontal
set xrange [0.03:3]
set yrange [0.3:30]
set key top left
set arrow from graph 0,first 1 to graph 1,first 1 nohead dt 3 lc rgb 'black'
set arrow from 0.9,graph 0 to 0.9,graph 1 nohead dt 2 lc rgb 'gray50'
set arrow from 1.9,graph 0 to 1.9,graph 1 nohead lw 2 lc rgb 'red'
set label 'β' at 0.9,graph 0.95 left offset 0.3,0 tc rgb 'gray40'
set label '1+β' at 1.9,graph 0.95 left offset 0.3,0 tc rgb 'red'
set linetype 1 lc rgb '#1b9e77'
set linetype 2 lc rgb '#1b9e77'
set linetype 3 lc rgb '#d95f02'
set linetype 4 lc rgb '#d95f02'
set linetype 5 lc rgb '#1b9e77' dt 2
set linetype 6 lc rgb '#d95f02' dt 2
set arrow from 0.6688703223445078,graph 0 to 0.6688703223445078,graph 0.8 nohead dt 4 lc rgb 'gray30'
set label 'gaussian ρ(A) = 1' at 0.6688703223445078,graph 0.82 center font ',8'
set arrow from 0.3730795046166391,graph 0 to 0.3730795046166391,graph 0.8 nohead dt 4 lc rgb 'gray30'
set label 'mixture ρ(A) = 1' at 0.3730795046166391,graph 0.82 center font ',8'
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'second-moment.png'
plot 'data_second_moment.csv' every ::1 using 3:(strcol(1) eq 'gaussian' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'gaussian measured', \
     'data_second_moment.csv' every ::1 using 3:(strcol(1) eq 'gaussian' ? $7 : NaN) with lines lw 2 title 'gaussian A_{11}', \
     'data_second_moment.csv' every ::1 using 3:(strcol(1) eq 'mixture' ? $8 : NaN):9 with yerrorbars pt 7 ps 0.8 title 'mixture measured', \
     'data_second_moment.csv' every ::1 using 3:(strcol(1) eq 'mixture' ? $7 : NaN) with lines lw 2 title 'mixture A_{11}', \
     'data_second_moment.csv' every ::1 using 3:(strcol(1) eq 'gaussian' ? $4 : NaN) with lines lw 2 title 'gaussian ρ(A)', \
     'data_second_moment.csv' every ::1 using 3:(strcol(1) eq 'mixture' ? $4 : NaN) with lines lw 2 title 'mixture ρ(A)'
set terminal svg size 900,600 dynamic enhanced
set output 'second-moment.svg'
replot
unset output
