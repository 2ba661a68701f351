# deviation-normalized.gp - written by akm from the CSV files in this folder.
# Re-render deviation-normalized.png and deviation-normalized.svg from inside this folder:  gnuplot deviation-normalized.gp
set datafile separator ','
set datafile missing NaN
set title 'E2 normalized key: measured rate − |β̃_i| against the key correlation ρ'
set xlabel 'AR(1) correlation ρ'
set ylabel 'rate deviation per step'
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'deviation-normalized.png'
plot 'deviation_normalized.csv' every ::1 using 1:(strcol(2) eq 'u1' ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 'u1', \
     'deviation_normalized.csv' every ::1 using 1:(strcol(2) eq 'u2' ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 'u2', \
     'deviation_normalized.csv' every ::1 using 1:(strcol(2) eq 'u3' ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 'u3', \
     'deviation_normalized.csv' every ::1 using 1:(strcol(2) eq 'u4' ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 'u4', \
     'deviation_normalized.csv' every ::1 using 1:(strcol(2) eq 'u5' ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 'u5', \
     'deviation_normalized.csv' every ::1 using 1:(strcol(2) eq 'u8' ? $3 : NaN):4 with yerrorbars pt 7 ps 0.8 title 'u8', \
     0 notitle lc rgb 'gray40' dt 2
set terminal svg size 900,600 dynamic enhanced
set output 'deviation-normalized.svg'
replot
unset output
