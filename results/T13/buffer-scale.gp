# buffer-scale.gp - written by akm from the CSV files in this folder.
# Re-render buffer-scale.png and buffer-scale.svg from inside this folder:  gnuplot buffer-scale.gp
set datafile separator ','
set datafile missing NaN
set title 'T13 normalized AK buffer per-coordinate RMS vs width: slopes -0.496 (η const), -0.994 (η ∝ n^-½), 0.005 (η ∝ n^½)'
set xlabel 'width n'
set ylabel 'RMS(M_ij)'
set logscale x
set logscale y
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'buffer-scale.png'
plot 'data_buffer_scale.csv' every ::1 using 2:(strcol(1) eq 'eta-constant' ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'measured, eta-constant', \
     'data_buffer_scale.csv' every ::1 using 2:(strcol(1) eq 'eta-constant' ? $4 : NaN) with lines lw 2 title 'exact, eta-constant', \
     'data_buffer_scale.csv' every ::1 using 2:(strcol(1) eq 'eta-decaying' ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'measured, eta-decaying', \
     'data_buffer_scale.csv' every ::1 using 2:(strcol(1) eq 'eta-decaying' ? $4 : NaN) with lines lw 2 title 'exact, eta-decaying', \
     'data_buffer_scale.csv' every ::1 using 2:(strcol(1) eq 'eta-growing' ? $5 : NaN):6 with yerrorbars pt 7 ps 0.8 title 'measured, eta-growing', \
     'data_buffer_scale.csv' every ::1 using 2:(strcol(1) eq 'eta-growing' ? $4 : NaN) with lines lw 2 title 'exact, eta-growing'
set terminal svg size 900,600 dynamic enhanced
set output 'buffer-scale.svg'
replot
unset output
