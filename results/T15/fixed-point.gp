# fixed-point.gp - written by akm from the CSV files in this folder.
# Re-render fixed-point.png and fixed-point.svg from inside this folder:  gnuplot fixed-point.gp
set datafile separator ','
set datafile missing NaN
set title 'T15 batch rule E[M_T] vs per-sample fixed point M*(I − β̃^T), all N'
set xlabel 'predicted entry'
set ylabel 'measured mean entry'
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'fixed-point.png'
plot 'data_fixed_point.csv' every ::1 using 4:(column(1) == 1 ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'N = 1', \
     'data_fixed_point.csv' every ::1 using 4:(column(1) == 8 ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'N = 8', \
     'data_fixed_point.csv' every ::1 using 4:(column(1) == 64 ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'N = 64', \
     x title 'y = x' lw 1 lc rgb 'gray40'
set terminal svg size 900,600 dynamic enhanced
set output 'fixed-point.svg'
replot
unset output
